import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstAcknowledgedWrite } from '../../../bench/failover.ts';
import type { OrchClient } from '../../../bench/orch-client.ts';

type Call = OrchClient['call'];

test('the first acknowledged write ends the wait even while earlier writes still hang on another survivor', async () => {
  let second = 0;
  const hanging: Call = () => new Promise(() => undefined);
  const failsTwice: Call = async () => {
    second++;
    if (second <= 2) throw new Error('503 no leader');
    return {};
  };
  const { attempts } = await firstAcknowledgedWrite([{ call: hanging }, { call: failsTwice }], 'f-0', 5_000);
  // Writes alternate over the survivors: the third to the second survivor is the sixth write.
  assert.equal(attempts, 6);
});

test('no acknowledged write within the bound is an error naming the last failure', async () => {
  const refuses: Call = async () => {
    throw new Error('503 no leader');
  };
  await assert.rejects(firstAcknowledgedWrite([{ call: refuses }], 'f-0', 150), /no write acknowledged within 150 ms of the kill: 503 no leader/);
});
