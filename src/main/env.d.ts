/** electron-vite bundles `./x?modulePath` as its own file and gives its path (used for worker_threads entries). */
declare module '*?modulePath' {
  const path: string;
  export default path;
}
