// What client-go makes of a webhook's non-2xx answer (rest.Request.transformResponse): the
// Status it sent, else a generic error by code — the text kube puts after "failed to call webhook".
import { errorBodyQuotedBytesMax } from './limits.ts';
import type { PostResponse } from './https-post.ts';

/** A failed HTTP answer: its code (for metrics) and client-go's message. */
export interface UnexpectedStatus {
  readonly code: number;
  readonly message: string;
}

const genericMessages: Readonly<Record<number, string>> = {
  400: 'the server rejected our request for an unknown reason',
  401: 'the server has asked for the client to provide credentials',
  403: 'the server does not allow access to the requested resource',
  404: 'the server could not find the requested resource',
  405: 'the server does not allow this method on the requested resource',
  409: 'the server reported a conflict',
  422: 'the server rejected our request due to an error in our request',
  429: 'the server has received too many requests and has asked us to try again later',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
};

/** The error of a non-2xx response. */
export function unexpectedStatus(response: PostResponse): UnexpectedStatus {
  const text = response.body.toString('utf8');
  try {
    const status = JSON.parse(text) as { kind?: unknown; message?: unknown; code?: unknown };
    if (status.kind === 'Status' && typeof status.message === 'string') return { code: typeof status.code === 'number' ? status.code : response.status, message: status.message };
  } catch {
    // Not JSON: the generic message below.
  }
  const code = response.status;
  const quoted = text.trim().slice(0, errorBodyQuotedBytesMax);
  const message = genericMessages[code] ?? (code >= 500 ? `an error on the server (${JSON.stringify(quoted)}) has prevented the request from succeeding` : `the server responded with the status code ${code} but did not return more information`);
  return { code, message };
}
