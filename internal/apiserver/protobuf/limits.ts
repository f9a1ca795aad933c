// The bounds of the Protobuf codec (see STYLE.md: a limit on everything, named in one place).

/** The largest Protobuf body decodeProtobuf accepts; the HTTP layer's body limit is lower still. */
export const protobufBodyBytesMax = 64 * 1024 * 1024;

/** How deep messages may nest in a decoded body (protoc's default recursion limit). */
export const protobufMessageDepthMax = 100;

/** How deep a JSON value embedded in a RawExtension, JSON or FieldsV1 may nest. */
export const embeddedJsonDepthMax = 100;

/** How many apiVersion/kind pairs the kind lookup remembers (served kinds are a few hundred). */
export const kindCacheEntriesMax = 4096;

/** How many Protobuf objects deep a RawExtension may embed others (`k8s\0` inside `raw`). */
export const embeddedEnvelopeDepthMax = 8;

/** How many timestamps the Time/MicroTime codecs remember, each way (a list's objects share many). */
export const timeCacheEntriesMax = 4096;

/** The largest working buffer the encoder keeps between encodings (larger ones are freed after use). */
export const outputScratchBytesMax = 1024 * 1024;
