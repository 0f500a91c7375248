import { x } from "y";

// Adds.
export const add = (a: number, b: number): number => a + b;

export function sub(a: number, b: number) {
  return a - b;
}

/** A shape. */
@sealed
export class Shape {
  area = 0;
  constructor(private name: string) {}
  describe(): string {
    return this.name;
  }
}

interface Point {
  x: number;
}

export type ID = string;

enum Color { Red, Green }

const config = { a: 1 };
