// Reads a file named by a flag, bounded in size, with the flag in the error.
import { readFile, stat } from 'node:fs/promises';
import { configurationFileBytesMax } from '../limits.ts';

/** The file's text; throws naming the flag when it cannot be read or is too large. */
export async function readConfigurationFile(path: string, flag: string): Promise<string> {
  try {
    const info = await stat(path);
    if (info.size > configurationFileBytesMax) throw new Error(`larger than ${configurationFileBytesMax} bytes`);
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`${flag}=${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
