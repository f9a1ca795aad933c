// @peculiar/x509 as every module of orch uses it: on node's WebCrypto, set once here, with
// reflect-metadata (which its dependency injection needs) loaded before it.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };
