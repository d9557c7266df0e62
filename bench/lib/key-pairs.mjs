// Key pairs for the benchmark's wallets, generated so that exporting them cannot deadlock.
// Node 20: a KeyObject from generateKeyPairSync shares its key data with the key-generation job;
// when a garbage collection inside `export({ format: 'jwk' })` (which holds that data's mutex)
// destroys the job, the job's destructor waits on the same mutex and the process hangs (seen
// twice under load: gdb showed ~KeyGenJob in a GC weak callback under ExportJWKEcKey). Taking
// the pair as DER and importing it gives a KeyObject of its own.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';

/** A fresh P-256 private KeyObject (its public half with `createPublicKey(privateKey)` or a JWK export). */
export function generateEs256PrivateKey() {
  const { privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  return createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' });
}
