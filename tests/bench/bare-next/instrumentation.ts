/**
 * The bare app's own (empty) instrumentation: without it, Turbopack (rooted at the repository for
 * the shared Next) takes the console's `instrumentation.ts`, and the floor would boot the console.
 */
export function register(): void {}
