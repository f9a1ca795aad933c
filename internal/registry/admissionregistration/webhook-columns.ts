// The table of both webhook configuration kinds, as kube-apiserver's printers show them:
// NAME, WEBHOOKS (how many), AGE.
import type { PrinterColumn } from '../schema/declaration.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';

/** NAME, WEBHOOKS, AGE for `kind` (ValidatingWebhookConfiguration or MutatingWebhookConfiguration). */
export function webhookConfigurationColumns(kind: string): readonly PrinterColumn[] {
  return [
    nameColumn,
    { name: 'Webhooks', type: 'integer', description: `Webhooks indicates the number of webhooks in the ${kind}.`, cell: (o) => (Array.isArray(o.webhooks) ? o.webhooks.length : 0) },
    ageColumn,
  ];
}
