import type { PresentationResponse } from '@tessera/contracts';
import { TableScroll, Time } from './display.js';

/**
 * What a verified session proved: per presentation, its credential and issuer, each
 * claim kept (minimised to the query) and, struck through, each path the wallet
 * disclosed beyond the query, dropped before anything was stored.
 */
export function ClaimsView(props: { response: PresentationResponse }) {
  const { response } = props;
  return (
    <div class="claims">
      <p>
        Verified <Time at={response.verifiedAt} />.
      </p>
      {response.presentations.map((presentation, index) => (
        <section aria-labelledby={`presentation-${index}`} class="panel">
          <h3 id={`presentation-${index}`}>
            {presentation.vct ?? presentation.doctype ?? presentation.format}{' '}
            <span class="muted">
              (“{presentation.credentialQueryId}”, {presentation.format})
            </span>
          </h3>
          <dl class="facts">
            <div>
              <dt>Issuer</dt>
              <dd>{presentation.issuer}</dd>
            </div>
            {presentation.trustedEntityName ? (
              <div>
                <dt>Trusted as</dt>
                <dd>
                  {presentation.trustedEntityName} (trust list sequence {presentation.trustListSequence})
                </dd>
              </div>
            ) : null}
            <div>
              <dt>Holder binding</dt>
              <dd>{presentation.holderBinding ? 'proven by the holder' : 'not required'}</dd>
            </div>
          </dl>
          <TableScroll label={`Claims of ${presentation.credentialQueryId}`}>
            <table>
              <caption>Claims</caption>
              <thead>
                <tr>
                  <th scope="col">Claim</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(presentation.claims).map(([name, value]) => (
                  <tr data-claim={name}>
                    <th scope="row">{name}</th>
                    <td>{typeof value === 'string' ? value : JSON.stringify(value)}</td>
                  </tr>
                ))}
                {(presentation.droppedClaims ?? []).map((path) => (
                  <tr class="dropped-row" data-dropped={path.join('.')}>
                    <th scope="row">
                      <span class="dropped">{path.join(' › ')}</span>
                    </th>
                    <td>dropped: disclosed by the wallet but not asked for, never stored</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ))}
    </div>
  );
}
