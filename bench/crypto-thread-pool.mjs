// Benchmark (issue 27 item 4): what node:crypto's asynchronous API frees on the event loop, on
// this machine. The verifier's JavaScript runs on one thread; a signature or verification done
// synchronously (crypto.sign / crypto.verify without a callback) takes that thread for its whole
// length, while the callback form and WebCrypto (crypto.subtle, which jose uses) queue the job on
// libuv's thread pool (UV_THREADPOOL_SIZE threads, 4 by default) and the event loop only hands it
// over and takes the result. A replica can use a second core only through such work (and V8's
// GC threads), so this is what decides whether a pod with 2 CPUs completes more than 1.6× the
// verifications of a pod with 1.
//
// For ES256 verify and sign over inputs of a KB-JWT's size, and for importing a P-256 public key
// from a JWK (the holder key of every presentation), each mode runs BENCH_IN_FLIGHT operations
// at a time (default 32, the hot-path benchmark's connections) for BENCH_SLICE seconds per slice,
// modes alternating over BENCH_ROUNDS rounds (order reversed every other round). Reported per
// operation: the event loop thread's CPU µs (/proc/self/task/<pid>/stat), the whole process's CPU
// µs (every thread) and operations per second of wall time. The ratios: event-loop CPU of the
// asynchronous mode over the synchronous one (how much of the event loop it frees), and process
// CPU over event-loop CPU for the asynchronous mode (the most a second core could add to it).
import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify, webcrypto } from 'node:crypto';
import { threadCpuMicros } from './lib/process-cpu.mjs';
import { writeResult } from './lib/results.mjs';

const { subtle } = webcrypto;
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 32);
const sliceSeconds = Number(process.env.BENCH_SLICE ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const data = Buffer.from(randomBytes(300).toString('base64url'));
const p1363 = { dsaEncoding: 'ieee-p1363' };
const signature = sign('sha256', data, { key: privateKey, ...p1363 });
const ecdsa = { name: 'ECDSA', hash: 'SHA-256' };
const curve = { name: 'ECDSA', namedCurve: 'P-256' };
const cryptoPublicKey = await subtle.importKey('jwk', publicKey.export({ format: 'jwk' }), curve, false, ['verify']);
const cryptoPrivateKey = await subtle.importKey('jwk', privateKey.export({ format: 'jwk' }), curve, false, ['sign']);
const holderJwks = Array.from({ length: 64 }, () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
);
const must = (ok, what) => {
  if (!ok) throw new Error(`${what} failed`);
};

/** Each mode: a function starting one operation (a promise, or a value for synchronous modes). */
const MODES = {
  'ES256 verify, synchronous (crypto.verify)': () =>
    must(verify('sha256', data, { key: publicKey, ...p1363 }, signature), 'verify'),
  'ES256 verify, thread pool (crypto.verify with a callback)': () =>
    new Promise((resolve, reject) =>
      verify('sha256', data, { key: publicKey, ...p1363 }, signature, (error, ok) =>
        error ? reject(error) : resolve(must(ok, 'verify')),
      ),
    ),
  'ES256 verify, thread pool (crypto.subtle, as jose)': async () =>
    must(await subtle.verify(ecdsa, cryptoPublicKey, signature, data), 'verify'),
  'ES256 sign, synchronous (crypto.sign)': () => must(sign('sha256', data, { key: privateKey, ...p1363 }), 'sign'),
  'ES256 sign, thread pool (crypto.sign with a callback)': () =>
    new Promise((resolve, reject) =>
      sign('sha256', data, { key: privateKey, ...p1363 }, (error, signed) =>
        error ? reject(error) : resolve(must(signed, 'sign')),
      ),
    ),
  'ES256 sign, thread pool (crypto.subtle, as jose)': async () =>
    must(await subtle.sign(ecdsa, cryptoPrivateKey, data), 'sign'),
  'P-256 JWK import, synchronous (createPublicKey)': (i) =>
    must(createPublicKey({ key: holderJwks[i % holderJwks.length], format: 'jwk' }), 'import'),
  'P-256 JWK import, crypto.subtle.importKey (as jose)': async (i) =>
    must(await subtle.importKey('jwk', holderJwks[i % holderJwks.length], curve, false, ['verify']), 'import'),
};

/** Runs `start` with `inFlight` operations outstanding for `seconds`; CPU and wall figures. */
async function runSlice(start, seconds) {
  const before = threadCpuMicros(process.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  let count = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const pending = start(count++);
      if (pending instanceof Promise) await pending;
      // Synchronous modes still yield now and then, as a server between requests would.
      else if (count % inFlight === 0) await new Promise(setImmediate);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const after = threadCpuMicros(process.pid);
  return {
    count,
    seconds: (performance.now() - started) / 1000,
    mainMicros: after.mainUser + after.mainSystem - before.mainUser - before.mainSystem,
    processMicros: after.total - before.total,
  };
}

const names = Object.keys(MODES);
const totals = Object.fromEntries(
  names.map((name) => [name, { count: 0, seconds: 0, mainMicros: 0, processMicros: 0 }]),
);
for (const name of names) await runSlice(MODES[name], 0.5);
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const slice = await runSlice(MODES[name], sliceSeconds);
    for (const field of Object.keys(slice)) totals[name][field] += slice[field];
  }
}

const per = (name) => {
  const total = totals[name];
  return {
    perSecond: total.count / total.seconds,
    main: total.mainMicros / total.count,
    process: total.processMicros / total.count,
  };
};
console.log(
  `\ncrypto-thread-pool: ${inFlight} in flight, ${rounds} rounds of ${sliceSeconds} s slices per mode, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
);
console.log('  mode                                                       ops/s  event loop µs/op  process µs/op');
for (const name of names) {
  const figures = per(name);
  console.log(
    `  ${name.padEnd(58)} ${figures.perSecond.toFixed(0).padStart(6)}  ${figures.main.toFixed(1).padStart(16)}  ${figures.process.toFixed(1).padStart(13)}`,
  );
}

const rows = [];
for (const [operation, sync, pool] of [
  ['ES256 verify', 'ES256 verify, synchronous (crypto.verify)', 'ES256 verify, thread pool (crypto.subtle, as jose)'],
  ['ES256 sign', 'ES256 sign, synchronous (crypto.sign)', 'ES256 sign, thread pool (crypto.subtle, as jose)'],
  [
    'P-256 JWK import',
    'P-256 JWK import, synchronous (createPublicKey)',
    'P-256 JWK import, crypto.subtle.importKey (as jose)',
  ],
]) {
  const [s, p] = [per(sync), per(pool)];
  console.log(
    `  ${operation}: crypto.subtle takes ${p.main.toFixed(1)} µs of the event loop per operation against ${s.main.toFixed(1)} µs synchronously (${((100 * p.main) / s.main).toFixed(0)} %); the process spends ${p.process.toFixed(1)} µs in all (${(p.process / p.main).toFixed(2)}× the event loop's)`,
  );
  rows.push({
    metric: `${operation}: event-loop CPU µs per operation through crypto.subtle (as jose) over synchronous node:crypto, ${inFlight} in flight`,
    value: p.main.toFixed(1),
    baseline: `${s.main.toFixed(1)} µs synchronous`,
    ratio: p.main / s.main,
    target: 'reported',
    pass: true,
  });
}
console.log('');
writeResult('crypto-thread-pool', rows);
