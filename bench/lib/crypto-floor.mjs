// The cryptography an operation of the verifier cannot do without, measured in the
// benchmark's own process with node:crypto (one core, synchronous, nothing else
// measured meanwhile), as CPU µs per operation: the floor its CPU per operation is
// read against (issue 27 item 1). Each primitive is timed over inputs of the real
// sizes; an operation's floor is the sum of the primitives it needs:
//  - ES256 sign: the request object (signed once, at creation);
//  - ES256 verify: the issuer's signature and the holder's (KB-JWT or mdoc device signature);
//  - P-256 public key import from a JWK: the holder's key (`cnf.jwk`, or the mdoc device key);
//    the issuer's key comes from the replica's chain cache and is not imported per answer;
//  - AES-256-GCM seal: the verified presentation data, sealed with the organisation's data key;
//  - AES-256-GCM open: the same data, opened when the relying party reads the result.
// Not in the floor: the access token's ES256 verification on management calls (a replica
// can verify a token once until its exp), hashing of disclosures (a few µs).
import { createCipheriv, createDecipheriv, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { measureEs256Sign, measureEs256Verify } from './crypto-baselines.mjs';
import { measureLoopCost } from './measure-loop.mjs';

/** What each phase's operation needs, by primitive. */
export const FLOOR_RECIPES = {
  a: { sign: 1 },
  b: { verify: 2, importKey: 1, seal: 1 },
  c: { verify: 2, importKey: 1, seal: 1 },
  d: { sign: 1, verify: 2, importKey: 1, seal: 1, open: 1 },
  m: { sign: 1, verify: 2, importKey: 1, seal: 1, open: 1 },
};

const PRIMITIVE_NAMES = {
  sign: 'ES256 sign',
  verify: 'ES256 verify',
  importKey: 'P-256 JWK import',
  seal: 'AES-256-GCM seal',
  open: 'AES-256-GCM open',
};

/** `{ verify: 2, importKey: 1 }` → "2 ES256 verify + 1 P-256 JWK import". */
export function describeRecipe(recipe) {
  return Object.entries(recipe)
    .map(([primitive, count]) => `${count} ${PRIMITIVE_NAMES[primitive]}`)
    .join(' + ');
}

/**
 * CPU µs per call of each primitive (this process's CPU time over the loop, not its wall
 * time: the machine may be shared), each measured for `seconds`: { sign, verify,
 * importKey, seal, open, signPerSecond, verifyPerSecond } (the two rates in wall time, for
 * the throughput ratios). `signInputLengths` and `verifyInputLengths` are the JWS signing
 * inputs' lengths; `sealedLength` the presentation data's.
 */
export function measureCryptoPrimitives(seconds, { signInputLengths, verifyInputLengths, sealedLength = 512 }) {
  const sign = measureEs256Sign(seconds, signInputLengths);
  const verify = measureEs256Verify(seconds, verifyInputLengths);
  const holderJwks = Array.from({ length: 64 }, () =>
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
  );
  const importKey = measureLoopCost(seconds / 2, (i) => {
    if (createPublicKey({ key: holderJwks[i % holderJwks.length], format: 'jwk' }).type !== 'public')
      throw new Error('JWK import failed');
  });
  const dataKey = randomBytes(32);
  const aad = Buffer.from('presentation-data/org-bench/00000000-0000-0000-0000-000000000000/presentations');
  const plaintext = Buffer.from('x'.repeat(sealedLength));
  const seal = () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', dataKey, iv);
    cipher.setAAD(aad);
    return { iv, body: Buffer.concat([cipher.update(plaintext), cipher.final()]), tag: cipher.getAuthTag() };
  };
  const sealCost = measureLoopCost(seconds / 2, seal);
  const sealed = Array.from({ length: 64 }, seal);
  const open = measureLoopCost(seconds / 2, (i) => {
    const { iv, body, tag } = sealed[i % sealed.length];
    const decipher = createDecipheriv('aes-256-gcm', dataKey, iv);
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    if (Buffer.concat([decipher.update(body), decipher.final()]).length !== sealedLength)
      throw new Error('AES-GCM open failed');
  });
  return {
    sign: sign.cpuMicros,
    verify: verify.cpuMicros,
    importKey: importKey.cpuMicros,
    seal: sealCost.cpuMicros,
    open: open.cpuMicros,
    signPerSecond: sign.perSecond,
    verifyPerSecond: verify.perSecond,
  };
}

/** The floor of `recipe` in µs, from measured `primitives`. */
export function floorMicros(recipe, primitives) {
  return Object.entries(recipe).reduce((sum, [primitive, count]) => sum + count * primitives[primitive], 0);
}
