declare module 'addons-linter' {
  interface Message {
    code: string;
    message: string;
    description?: string;
    file?: string;
  }
  interface Linter {
    run(): Promise<{ errors: Message[]; warnings: Message[]; notices: Message[] }>;
  }
  const linter: { createInstance(options: { config: Record<string, unknown>; runAsBinary: boolean }): Linter };
  export default linter;
}
