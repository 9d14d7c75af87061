/** A goal a figure is held to, e.g. `{ op: '<', value: 2000 }` for "under 2 s" when the unit is ms. */
export interface Target {
  op: '<' | '<=' | '>' | '>=' | '=';
  value: number;
}

/** One printed figure. */
export interface Row {
  name: string;
  value: number;
  unit: string;
  /** Undefined when no target was set; printed as "-". */
  target?: Target;
}

/**
 * A benchmark measures something and returns its figures. Missing a target is a result, not an error: throw only
 * when the measurement itself could not be made.
 */
export interface Benchmark {
  /** Short, stable id, used to pick benchmarks from the command line and in the JSON. */
  id: string;
  run(): Promise<Row[]>;
}

export function meetsTarget(value: number, target: Target): boolean {
  switch (target.op) {
    case '<':
      return value < target.value;
    case '<=':
      return value <= target.value;
    case '>':
      return value > target.value;
    case '>=':
      return value >= target.value;
    case '=':
      return value === target.value;
  }
}
