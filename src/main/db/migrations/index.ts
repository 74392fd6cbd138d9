import { migration0001 } from './0001-initial';
import type { Migration } from './types';

/** Every migration, in order. Append only: a released migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [migration0001];
