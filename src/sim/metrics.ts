// Counters a simulated controller keeps, rendered in the Prometheus text format (version 0.0.4) as client_golang's
// registry would: families sorted by name, one sample per label set, and a family with no samples left out.

export type Labels = Record<string, string>;

export interface Counter {
  inc(labels: Labels): void;
  /** The current value for exactly these labels (0 if never incremented). */
  value(labels: Labels): number;
}

export interface MetricsRegistry {
  /** Registers a counter vector; `inc` must name exactly `labelNames`. */
  counter(name: string, help: string, labelNames: string[]): Counter;
  render(): string;
}

interface Family {
  name: string;
  help: string;
  labelNames: string[];
  samples: Map<string, { labels: string[]; value: number }>;
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

export function createMetricsRegistry(): MetricsRegistry {
  const families = new Map<string, Family>();
  return {
    counter(name, help, labelNames) {
      if (families.has(name)) throw new Error(`metric ${name} is already registered`);
      const family: Family = { name, help, labelNames, samples: new Map() };
      families.set(name, family);
      const valuesOf = (labels: Labels) => {
        const given = Object.keys(labels);
        if (given.length !== labelNames.length || labelNames.some((l) => !(l in labels)))
          throw new Error(`${name} takes the labels ${labelNames.join(', ')}, got ${given.join(', ')}`);
        return labelNames.map((l) => labels[l]!);
      };
      return {
        inc(labels) {
          const values = valuesOf(labels);
          const key = JSON.stringify(values);
          const sample = family.samples.get(key) ?? { labels: values, value: 0 };
          sample.value += 1;
          family.samples.set(key, sample);
        },
        value: (labels) => family.samples.get(JSON.stringify(valuesOf(labels)))?.value ?? 0,
      };
    },
    render() {
      const lines: string[] = [];
      for (const f of [...families.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (!f.samples.size) continue;
        lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} counter`);
        const samples = [...f.samples.values()].sort((a, b) => {
          for (let i = 0; i < a.labels.length; i++) {
            if (a.labels[i] !== b.labels[i]) return a.labels[i]! < b.labels[i]! ? -1 : 1;
          }
          return 0;
        });
        for (const s of samples) {
          const labels = f.labelNames.map((l, i) => `${l}="${escapeLabel(s.labels[i]!)}"`).join(',');
          lines.push(`${f.name}${labels ? `{${labels}}` : ''} ${s.value}`);
        }
      }
      return lines.length ? `${lines.join('\n')}\n` : '';
    },
  };
}
