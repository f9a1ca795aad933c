// orch's release, in one place: /version's gitVersion, the user agent of in-process requests and
// the maintenance API's status all derive from it (a unit test keeps it equal to package.json's).

/** The orch release (package.json's version). */
export const orchRelease = '0.1.0';

/** The Kubernetes version orch serves, with orch's release as build metadata (as /version's gitVersion). */
export const gitVersion = `v1.28.0+orch.${orchRelease}`;
