// The cryptography a verifier cannot avoid, measured in the benchmark's own process
// with node:crypto (one core, synchronous, nothing else running): ES256 signatures
// per second (a request object is one) and ES256 verifications per second (a
// holder-bound presentation needs two: issuer and holder). Inputs are the sizes of
// the real JWS signing inputs, so hashing is counted as it is for the service.
import { generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { measureLoopCost } from './measure-loop.mjs';

/** Random base64url text of `length` characters, like a JWS signing input. */
const signingInput = (length) => Buffer.from(randomBytes(length).toString('base64url').slice(0, length));

/** ES256 (P-256, SHA-256, IEEE P1363 signatures) over inputs of `inputLengths` bytes, in turn: { perSecond, cpuMicros } (measureLoopCost). */
export function measureEs256Sign(seconds, inputLengths) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const inputs = inputLengths.map(signingInput);
  return measureLoopCost(seconds, (i) => {
    if (sign('sha256', inputs[i % inputs.length], { key: privateKey, dsaEncoding: 'ieee-p1363' }).length !== 64)
      throw new Error('ES256 sign failed');
  });
}

/** ES256 verifications over inputs of `inputLengths` bytes, in turn, every one of which must verify: { perSecond, cpuMicros }. */
export function measureEs256Verify(seconds, inputLengths) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signed = inputLengths
    .map(signingInput)
    .map((data) => ({ data, signature: sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }) }));
  return measureLoopCost(seconds, (i) => {
    const { data, signature } = signed[i % signed.length];
    if (!verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature))
      throw new Error('ES256 verify failed');
  });
}
