// undici's own files that src/main/leg/undici.ts loads instead of its index; typed there from undici's types.
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
declare module 'undici/lib/core/errors.js' {
  const errors: unknown;
  export default errors;
}
declare module 'undici/lib/global.js' {
  const globals: unknown;
  export default globals;
}
declare module 'undici/lib/interceptor/redirect.js' {
  const redirect: unknown;
  export default redirect;
}
declare module 'undici/lib/core/util.js' {
  const util: unknown;
  export default util;
}
