import type { ComponentChildren } from 'preact';
import type { Flash } from '../../domain/console-session.js';

// Form parts with their labels, hints and problems wired for assistive technology:
// every control has a <label>, a hint and a problem are named by aria-describedby, a
// control with a problem is aria-invalid. Values come back from a refused form.

interface FieldBase {
  name: string;
  label: string;
  /** Unique in the page; defaults to the name. */
  id?: string;
  hint?: string;
  required?: boolean;
  /** The service's problem for this field, when the last submission was refused. */
  problem?: string;
  /** Another element that describes the field (a live check beside it). */
  describedBy?: string;
}

function describedBy(id: string, field: FieldBase): string | undefined {
  const ids = [
    field.hint ? `${id}-hint` : undefined,
    field.problem ? `${id}-problem` : undefined,
    field.describedBy,
  ].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** The accessibility state of a control: what describes it, and whether the last submission was refused for it. */
function fieldState(id: string, field: FieldBase) {
  return {
    'aria-describedby': describedBy(id, field),
    'aria-invalid': field.problem ? ('true' as const) : undefined,
  };
}

/** A control's label (marked when required), then its hint and problem. */
function FieldHead(props: { id: string; field: FieldBase }) {
  return (
    <>
      <label for={props.id}>
        {props.field.label}
        {props.field.required ? <span class="required"> (required)</span> : null}
      </label>
      <FieldNotes id={props.id} field={props.field} />
    </>
  );
}

function FieldNotes(props: { id: string; field: FieldBase }) {
  return (
    <>
      {props.field.hint ? (
        <p class="hint" id={`${props.id}-hint`}>
          {props.field.hint}
        </p>
      ) : null}
      {props.field.problem ? (
        <p class="field-problem" id={`${props.id}-problem`}>
          {props.field.problem}
        </p>
      ) : null}
    </>
  );
}

export function TextField(
  props: FieldBase & {
    value?: string;
    type?: 'text' | 'email' | 'url' | 'number' | 'search' | 'datetime-local';
    autocomplete?: string;
    pattern?: string;
    min?: string;
    max?: string;
    step?: string;
  },
) {
  const id = props.id ?? props.name;
  return (
    <div class="field">
      <FieldHead id={id} field={props} />
      <input
        id={id}
        name={props.name}
        // One of the single-line types; Preact's typings split inputs by type.
        {...({ type: props.type ?? 'text' } as { type: 'text' })}
        value={props.value ?? ''}
        required={props.required}
        autocomplete={props.autocomplete ?? 'off'}
        pattern={props.pattern}
        min={props.min}
        max={props.max}
        step={props.step}
        {...fieldState(id, props)}
      />
    </div>
  );
}

export function TextArea(props: FieldBase & { value?: string; rows?: number; code?: boolean; readOnly?: boolean }) {
  const id = props.id ?? props.name;
  return (
    <div class="field">
      <FieldHead id={id} field={props} />
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 6}
        required={props.required}
        readOnly={props.readOnly}
        spellcheck={props.code ? false : undefined}
        class={props.code ? 'code' : undefined}
        {...fieldState(id, props)}
      >
        {props.value ?? ''}
      </textarea>
    </div>
  );
}

export function SelectField(
  props: FieldBase & { value?: string; options: Array<{ value: string; label: string }>; blank?: string },
) {
  const id = props.id ?? props.name;
  return (
    <div class="field">
      <FieldHead id={id} field={props} />
      <select id={id} name={props.name} required={props.required} {...fieldState(id, props)}>
        {props.blank !== undefined ? <option value="">{props.blank}</option> : null}
        {props.options.map((option) => (
          <option value={option.value} selected={option.value === props.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A group of checkboxes or radio buttons under one legend. */
export function ChoiceGroup(
  props: Omit<FieldBase, 'name'> & {
    name: string;
    type: 'checkbox' | 'radio';
    options: Array<{ value: string; label: string; hint?: string }>;
    checked: readonly string[];
  },
) {
  const id = props.id ?? props.name;
  return (
    <fieldset class="field choices" aria-describedby={describedBy(id, props)}>
      <legend>{props.label}</legend>
      <FieldNotes id={id} field={props} />
      {props.options.map((option, index) => (
        <div class="choice">
          <input
            type={props.type}
            id={`${id}-${index}`}
            name={props.name}
            value={option.value}
            checked={props.checked.includes(option.value)}
            required={props.type === 'radio' && props.required}
          />
          <label for={`${id}-${index}`}>{option.label}</label>
          {option.hint ? <span class="hint"> {option.hint}</span> : null}
        </div>
      ))}
    </fieldset>
  );
}

/** A POST form with the anti-forgery token. */
export function PostForm(props: {
  action: string;
  csrfToken: string;
  children: ComponentChildren;
  class?: string;
  label?: string;
  id?: string;
  /** Names the form among several posting the same fields, so a refusal's problems return to this one (`flashOf`). */
  formName?: string;
}) {
  return (
    <form method="post" action={props.action} class={props.class} aria-label={props.label} id={props.id}>
      <input type="hidden" name="_csrf" value={props.csrfToken} />
      {props.formName ? <input type="hidden" name="_form" value={props.formName} /> : null}
      {props.children}
    </form>
  );
}

/** One button that POSTs (delete, redeliver, rotate): a form of its own, with hidden fields. */
export function ActionButton(props: {
  action: string;
  csrfToken: string;
  label: string;
  /** What the button does, for a screen reader when the visible label is short ("Delete" → "Delete verifier desk"). */
  accessibleLabel?: string;
  danger?: boolean;
  fields?: Record<string, string>;
}) {
  return (
    <form method="post" action={props.action} class="inline-action">
      <input type="hidden" name="_csrf" value={props.csrfToken} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.danger ? 'danger' : 'secondary'} aria-label={props.accessibleLabel}>
        {props.label}
      </button>
    </form>
  );
}

/** The service's problem at a JSON Pointer (or under it), for the field that sent it. */
export function problemAt(flash: Flash | undefined, ...paths: string[]): string | undefined {
  if (flash?.kind !== 'problem' || !flash.details) return undefined;
  const found = flash.details.filter((detail) =>
    paths.some((path) => detail.path === path || detail.path.startsWith(`${path}/`)),
  );
  return found.length > 0 ? found.map((detail) => detail.message).join(' ') : undefined;
}

/** The last refusal when it came from the form named `formName` (several forms on a page post the same fields). */
export function flashOf(flash: Flash | undefined, formName: string): Flash | undefined {
  return flash?.kind === 'problem' && flash.values?._form === formName ? flash : undefined;
}

/** What the person typed into a refused form, else the current value. */
export function valueOf(flash: Flash | undefined, name: string, current?: string): string | undefined {
  return flash?.kind === 'problem' && flash.values && name in flash.values ? flash.values[name] : current;
}
