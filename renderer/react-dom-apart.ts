// The shell chunk evaluated in three tasks instead of one (ADR 0044). The client entry imports this module first, so the
// bundle puts it ahead of the rest of the shell: `end-task.ts` ends the task that loaded the page's modules (where
// Lighthouse's trace copies each module's source, ~5 ms for the shell), react-dom is then evaluated in a task of its
// own, and the await below leaves the renderer and the page's modules to the next one. No request more: the awaits
// are inside the shell chunk, not chunks of their own.
import './end-task.ts'
import { hydrateRoot } from 'react-dom/client'
import { nextTask } from './next-task.ts'

await nextTask()

export { hydrateRoot }
