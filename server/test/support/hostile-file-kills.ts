// Imported by hostile-decoder-child.ts before the real entry, so this listener is in place before any
// message is read: a file named *hostile* kills the process (SIGKILL, as the kernel's out-of-memory
// killer would) while the pictures sent before it are still decoding.
process.on('message', (request: { file?: string }) => {
  if (request.file?.includes('hostile')) process.kill(process.pid, 'SIGKILL');
});
