// Preloaded (`node --require`) into the API and agent processes the tests spawn: a process whose parent (the jest
// worker that started it) is gone ends itself, as the platform's agents end when their supervisor's pipe closes.
// Without it a jest run killed by hand (or a worker jest force-exits) left its APIs and their agents running.
'use strict'
const startedBy = process.ppid
setInterval(() => {
  // Reparented: the test process died. SIGTERM, so that an API stops its own agents on its way out.
  if (process.ppid !== startedBy) process.kill(process.pid, 'SIGTERM')
}, 1000).unref()
