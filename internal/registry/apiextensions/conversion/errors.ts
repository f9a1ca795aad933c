// The one error of conversion: kube's converters return plain errors, which its handlers answer as
// a 500 Status of reason Unknown (empty) whose message is the converter's text.
import { StatusError } from '../../errors/status-error.ts';

/** A failed conversion: HTTP 500, reason '' (kube's StatusReasonUnknown), kube's message. */
export class ConversionError extends StatusError {
  constructor(message: string) {
    super(500, '', message);
    this.name = 'ConversionError';
  }
}
