// Timings of serving custom resources.

/** The wait before listing the CustomResourceDefinitions again after their watch ended. */
export const crdRelistDelayMs = 500;
