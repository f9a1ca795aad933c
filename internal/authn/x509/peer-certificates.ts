// The client's certificate chain from a node TLS socket, in the shape authenticators take.
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { peerCertificateChainMax } from '../limits.ts';

/**
 * The peer's chain as DER, leaf first, from `socket.getPeerCertificate(true)`; empty when the
 * client sent no certificate. It stops at a self-issued certificate (node links a root to itself)
 * and after `peerCertificateChainMax` + 1 certificates (the verifier then refuses it as too long).
 */
export function peerCertificateChain(socket: Pick<TLSSocket, 'getPeerCertificate'>): Buffer[] {
  const chain: Buffer[] = [];
  let current: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (current?.raw !== undefined && chain.length <= peerCertificateChainMax) {
    if (chain.some((der) => der.equals(current!.raw))) break;
    chain.push(current.raw);
    current = current.issuerCertificate;
  }
  return chain;
}
