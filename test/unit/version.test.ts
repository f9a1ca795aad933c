import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../internal/cluster/build-layout.ts';
import { gitVersion, orchRelease } from '../../internal/version.ts';

test("orch's release is package.json's version, and /version's gitVersion carries it as build metadata", () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  assert.equal(orchRelease, pkg.version);
  assert.equal(gitVersion, `v1.28.0+orch.${pkg.version}`);
});
