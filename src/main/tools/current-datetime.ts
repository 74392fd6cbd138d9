import type { Tool } from './types';
import { argString } from './types';

/** The current date and time: models have no clock, and "today" is the most common thing they get wrong. */
export const currentDatetimeTool: Tool = {
  schema: {
    name: 'current_datetime',
    description: 'Returns the current date and time (ISO 8601, UTC and the local time of the given IANA time zone).',
    parameters: {
      type: 'object',
      properties: { timezone: { type: 'string', description: 'IANA time zone, e.g. Europe/Paris; default: the computer\'s zone' } },
      additionalProperties: false,
    },
  },
  needsApproval: false,
  run(args, ctx) {
    const now = new Date(ctx.now());
    const zone = argString(args, 'timezone');
    let local: string;
    try {
      local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'long', ...(zone ? { timeZone: zone } : {}) }).format(now);
    } catch {
      return Promise.resolve({ content: `Unknown time zone ${JSON.stringify(zone)}; use an IANA name such as Europe/Paris.`, isError: true });
    }
    return Promise.resolve({ content: `UTC: ${now.toISOString()}\nLocal: ${local}`, isError: false });
  },
};
