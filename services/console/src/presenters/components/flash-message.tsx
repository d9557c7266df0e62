import type { Flash } from '../../domain/console-session.js';

/**
 * The outcome of the last form: a success as a polite status, a refusal as an alert
 * naming the service's code and each problem at its path. A secret shown once (a
 * webhook's signing secret) sits in a read-only field the person can copy.
 */
export function FlashMessage(props: { flash: Flash }) {
  const { flash } = props;
  if (flash.kind === 'success') {
    return (
      <div class="flash success" role="status">
        <p>{flash.message}</p>
        {flash.secret ? (
          <div class="secret">
            <label for="shown-secret">{flash.secret.label}</label>
            <input id="shown-secret" type="text" readOnly value={flash.secret.value} spellcheck={false} />
            <p class="hint">Shown once: copy it now. The console does not keep it.</p>
          </div>
        ) : null}
      </div>
    );
  }
  return (
    <div class="flash problem" role="alert" tabIndex={-1} id="problem">
      <h2>Not done</h2>
      <p>
        {flash.message}
        {flash.code ? <span class="code"> ({flash.code})</span> : null}
      </p>
      {flash.details && flash.details.length > 0 ? (
        <ul class="details">
          {flash.details.map((detail) => (
            <li>
              <code>{detail.path}</code> {stripPath(detail.message, detail.path)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The services repeat the path at the start of some messages; it is shown once. */
function stripPath(message: string, path: string): string {
  return message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
}
