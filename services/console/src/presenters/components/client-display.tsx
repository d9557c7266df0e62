import type { ClientMetadata } from '@tessera/contracts';

/** How a wallet introduces the verifier: its logo and name (or its id when it has no name). */
export function ClientDisplay(props: { verifierId: string; metadata?: ClientMetadata | undefined }) {
  const name = props.metadata?.client_name;
  return (
    <div class="client-display">
      {props.metadata?.logo_uri ? (
        <img class="logo-preview" src={props.metadata.logo_uri} alt={`Logo of ${name ?? props.verifierId}`} />
      ) : null}
      <strong>{name ?? props.verifierId}</strong>
      {name ? <span class="muted"> ({props.verifierId})</span> : <span class="muted"> (no display name)</span>}
    </div>
  );
}
