import { QueryTypes, type Sequelize } from 'sequelize'

/** True for the one caller that records (job, tick) first; everyone else must skip that tick. */
export async function claimTick(sequelize: Sequelize, job: string, tick: string): Promise<boolean> {
  const [row] = await sequelize.query<{ first: boolean }>(
    `INSERT INTO job_runs (job, tick, instance) VALUES (:job, :tick, :instance)
     ON CONFLICT (job, tick) DO UPDATE SET duplicates = job_runs.duplicates + 1
     RETURNING (xmax = 0) AS first`,
    { replacements: { job, tick, instance: `${process.pid}` }, type: QueryTypes.SELECT }
  )
  return row!.first
}

/** Ticks recorded for a job, with how many late arrivals each one turned away. */
export async function tickRuns(sequelize: Sequelize, job: string): Promise<{ tick: string; duplicates: number }[]> {
  return sequelize.query<{ tick: string; duplicates: number }>('SELECT tick::text, duplicates FROM job_runs WHERE job = :job ORDER BY tick', {
    replacements: { job },
    type: QueryTypes.SELECT
  })
}
