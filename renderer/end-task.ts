import { nextTask } from './next-task.ts'

// Evaluating this module ends the task that loads it: whatever the bundle puts after it is evaluated in a later task.
await nextTask()
