// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect
// metadata polyfill loaded first; and it needs a WebCrypto provider.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

export { x509 };
