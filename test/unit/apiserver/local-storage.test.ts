// The API's behaviour tests again, over the real single-replica SQLite store instead of the fake.
process.env.ORCH_TEST_STORAGE = 'local';
await import('./crud.test.ts');
await import('./watch.test.ts');
await import('./negotiation.test.ts');
await import('./errors.test.ts');
