/** How often the webhook configurations are read again even without a change seen (a missed watch event heals by then). */
export const webhookConfigurationResyncMs = 30_000;
