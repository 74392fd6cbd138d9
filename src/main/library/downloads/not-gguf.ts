/**
 * A download's check that what comes is a GGUF file (its first 4 bytes), and the words for one that is not: a web
 * page (Hugging Face's blob/ link) or anything else.
 */
import { open } from 'node:fs/promises';
import { UserFacingError } from '../../errors';

/** Every GGUF file starts with these 4 bytes. */
export const GGUF_MAGIC = Buffer.from('GGUF', 'latin1');

/** What came is not a GGUF file: said in words that point to the link that would work. */
export class NotGgufError extends UserFacingError {
  constructor(file: string, head: Buffer, contentType: string) {
    const text = head.toString('latin1').trimStart();
    const page = /html/i.test(contentType) || text.startsWith('<');
    super(
      'invalid-payload',
      page
        ? `${file} was not downloaded: this address served a web page, not a GGUF file. For Hugging Face use the resolve/ link (not blob/) or hf:owner/repo/file.gguf.`
        : `${file} was not downloaded: this address did not serve a GGUF file (it starts with "${JSON.stringify(text.slice(0, 4)).slice(1, -1)}" where a GGUF starts with "GGUF").`,
    );
  }
}

/** The first `n` bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, n: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
