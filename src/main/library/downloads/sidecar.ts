/**
 * What a download keeps on disk beside its bytes: a hidden sidecar `.<file>.download.json` in the models folder with
 * the source, the size and sha256 it stated and its ETag, so a later start (after a pause, a crash, a restart) goes
 * on from the `<file>.part` with `Range`, and a file that changed at its source starts over instead.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathInFolder, PART_SUFFIX } from '../models-folder';

/** A download's sidecar: what its source said when it started. */
export interface Sidecar {
  source: string;
  url: string;
  file: string;
  total: number | null;
  sha256: string | null;
  etag: string | null;
}

/** The sidecar of `file` (a name inside the models folder `dir`, maybe in a subfolder). */
export const sidecarPath = (dir: string, file: string) => join(dir, dirname(file), `.${basename(file)}.download.json`);

/** Whether a name in the models folder is a download's sidecar. */
export const isSidecarName = (name: string) => name.startsWith('.') && name.endsWith('.download.json');

/** The sidecar at `path`; null where there is none or it cannot be read as one. */
export async function readSidecar(path: string): Promise<Sidecar | null> {
  try {
    const car = JSON.parse(await readFile(path, 'utf8')) as Sidecar;
    return typeof car.url === 'string' && typeof car.file === 'string' ? car : null;
  } catch {
    return null;
  }
}

export async function writeSidecar(dir: string, car: Sidecar): Promise<void> {
  await writeFile(sidecarPath(dir, car.file), JSON.stringify(car));
}

/** Removes a download's bytes and its sidecar: nothing of it is left to resume. */
export async function removeDownloadFiles(dir: string, file: string): Promise<void> {
  await rm(pathInFolder(dir, file) + PART_SUFFIX, { force: true });
  await rm(sidecarPath(dir, file), { force: true });
}
