import { migration0001 } from './0001-initial';
import { migration0002 } from './0002-blobs-and-steps';
import { migration0003 } from './0003-search';
import { migration0004 } from './0004-models-and-aliases';
import { migration0005 } from './0005-conversation-settings';
import { migration0006 } from './0006-conversation-tools';
import { migration0007 } from './0007-search-after-streaming';
import { migration0008 } from './0008-recency-with-id';
import { migration0009 } from './0009-pending-approvals';
import { migration0010 } from './0010-turn-attachments';
import { migration0011 } from './0011-request-bodies-follow-steps';
import { migration0012 } from './0012-search-cjk';
import { migration0013 } from './0013-search-no-space-scripts';
import { migration0014 } from './0014-tool-runs';
import { migration0015 } from './0015-request-body-chunks';
import { migration0016 } from './0016-conversation-deletes';
import { migration0017 } from './0017-turn-left-at';
import { migration0018 } from './0018-drafts';
import { migration0019 } from './0019-draft-settings';
import { migration0020 } from './0020-search-titles';
import { migration0021 } from './0021-search-text-runs';
import { migration0022 } from './0022-search-reasoning-and-documents';
import { migration0023 } from './0023-search-no-space-scripts-beyond-text';
import { migration0024 } from './0024-edit-draft-files';
import type { Migration } from './types';

/** Every migration, in order. Append only: a released migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007, migration0008, migration0009, migration0010, migration0011, migration0012, migration0013, migration0014, migration0015, migration0016, migration0017, migration0018, migration0019, migration0020, migration0021, migration0022, migration0023, migration0024];
