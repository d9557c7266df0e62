import type { IntentNotice } from '@tessera/contracts';
import { readableDuration, readableTerm } from '../../domain/notice-form.js';
import { Time } from './display.js';

/** A consent notice as the person whose data it is reads it: who, why, what, on what basis, how long, their rights. */
export function NoticeView(props: { notice: IntentNotice }) {
  const { notice } = props;
  return (
    <article class="notice" lang={notice.language ?? 'en'} aria-labelledby="notice-heading">
      <h3 id="notice-heading">{notice.title}</h3>
      {notice.description ? <p>{notice.description}</p> : null}
      <p>
        <strong>{notice.controller.name}</strong> is responsible for your data. Contact:{' '}
        {/^https?:/.test(notice.controller.contact) ? (
          <a href={notice.controller.contact}>{notice.controller.contact}</a>
        ) : (
          notice.controller.contact
        )}
        {notice.controller.url ? (
          <>
            {' '}
            (<a href={notice.controller.url}>{notice.controller.url}</a>)
          </>
        ) : null}
        .
      </p>
      <h4>Why your data is used</h4>
      <ul>
        {notice.purposes.map((purpose) => (
          <li>
            {purpose.description} <span class="muted">({readableTerm(purpose.id)})</span>
          </li>
        ))}
      </ul>
      <h4>Which data</h4>
      <p>{notice.personalDataCategories.map(readableTerm).join(', ')}</p>
      {notice.processingOperations.length > 0 ? (
        <p>What is done with it: {notice.processingOperations.map(readableTerm).join(', ')}.</p>
      ) : null}
      <p>
        Legal basis: {readableTerm(notice.legalBasis)}. Kept for {readableDuration(notice.retention.duration)}.
      </p>
      {notice.recipients && notice.recipients.length > 0 ? (
        <>
          <h4>Who receives it</h4>
          <ul>
            {notice.recipients.map((recipient) => (
              <li>
                {recipient.name} ({recipient.role})
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {notice.storageLocations && notice.storageLocations.length > 0 ? (
        <p>Stored in: {notice.storageLocations.join(', ')}.</p>
      ) : null}
      {notice.withdrawalMethod ? <p>To withdraw your consent: {notice.withdrawalMethod}</p> : null}
      {notice.rightsUrl ? (
        <p>
          Your rights: <a href={notice.rightsUrl}>{notice.rightsUrl}</a>
        </p>
      ) : null}
      {notice.noticeUrl ? (
        <p>
          The full notice: <a href={notice.noticeUrl}>{notice.noticeUrl}</a>
        </p>
      ) : null}
      <p class="muted">
        Version {notice.version}, issued <Time at={notice.createDateTime} /> by {notice.createdBy}.
      </p>
    </article>
  );
}
