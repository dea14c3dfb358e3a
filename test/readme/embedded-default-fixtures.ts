// The README tour's fixtures: its create body and cluster path (with this run's name), and what a power job's steps
// may be.
import { expect } from 'vitest';
import { RESUME_STEPS, STOPPING_STATES } from '../../src/hive/constants.js';
import { NAME } from './embedded-default-bed.js';

export const createBody = {
  hub: 'local',
  namespace: 'demo',
  name: NAME,
  baseDomain: 'demo.example.com',
  platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
  imageSet: 'openshift-v4.16.3',
  pullSecretRef: 'pull-secret',
  compute: { replicas: 2, instanceType: 'm6i.2xlarge' },
  labels: { team: 'payments' },
  hibernateAfter: '8h',
  expiresIn: '72h',
};
export const CD = `/v1/clusters/local/demo/${NAME}`;
export const stepsOf = (job: { steps: { step: string }[] }) => job.steps.map((s) => s.step);

// Hive's power states on the way down and up, in the only order Hive takes them (the hibernation controller:
// REFERENCE.md §2.5, "Stopping sequence" and "Resume sequence").
export const STOPPING: string[] = [...STOPPING_STATES, 'Hibernating'];
export const RESUMING: string[] = [...Object.keys(RESUME_STEPS), 'Running'];

/**
 * A power job's steps: its request, then Hive's states as the job's watch saw them, which is what Hive guarantees:
 * some of `sequence`, in its order, ending at its last state. The request makes the change and the job follows from
 * when a worker takes it, so a state Hive left before that is not in the report (at the tour's simulator speed,
 * 300, StartingMachines lasts 50 ms and Stopping 100 ms; under load a worker can take longer). Every step in turn
 * is proven in test/clusters/power.test.ts.
 */
export function expectHiveSteps(steps: string[], requested: string, sequence: string[]): void {
  expect(steps[0]).toBe(requested);
  const seen = steps.slice(1);
  expect(
    seen.every((s) => sequence.includes(s)),
    JSON.stringify(steps),
  ).toBe(true);
  const order = seen.map((s) => sequence.indexOf(s));
  expect(order, JSON.stringify(steps)).toEqual([...order].sort((a, b) => a - b));
  expect(seen.at(-1)).toBe(sequence.at(-1));
}
