/** Written by vite.config.ts (lazyScreenFiles): each lazy screen's files in the client build, for the server's render. */
declare module 'virtual:lazy-screen-files' {
  const files: Partial<Record<'login' | 'enrolment', string[]>>;
  export default files;
}
