// Custom resource conversion between a CRD's versions: makeConverter and what it returns.
export { makeConverter } from './converter.ts';
export type { Converter, ConverterDeps, ConvertOptions, DialAddress } from './converter-types.ts';
export { ConversionError } from './errors.ts';
