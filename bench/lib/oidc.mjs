// An OIDC signing key for benchmarks: services trust its JWKS file, the load
// generator signs access tokens in Keycloak's claim layout.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const BENCH_ISSUER = 'https://idp.bench.tessera.example/realms/tessera';
export const BENCH_AUDIENCE = 'tessera-api';

export async function createBenchOidc(dir) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwksFile = join(dir, 'jwks.json');
  writeFileSync(
    jwksFile,
    JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' }] }),
  );
  return {
    env: { OIDC_ISSUER: BENCH_ISSUER, OIDC_AUDIENCE: BENCH_AUDIENCE, OIDC_JWKS_FILE: jwksFile },
    sign: ({ sub, email, platformAdmin = false, orgRoles = {} }) =>
      new SignJWT({
        ...(email ? { email } : {}),
        realm_access: { roles: platformAdmin ? ['platform_admin'] : [] },
        resource_access: Object.fromEntries(Object.entries(orgRoles).map(([org, roles]) => [org, { roles }])),
      })
        .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
        .setIssuer(BENCH_ISSUER)
        .setAudience(BENCH_AUDIENCE)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
  };
}
