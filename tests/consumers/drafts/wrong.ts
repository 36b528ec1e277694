// Values the draft projects' types refuse: tsc must report exactly the lines marked "refused".
import type { Order } from "draft07-contracts";
import type { Reading } from "draft04-contracts";
import type { Forest, StrictNode } from "draft2019-contracts";
import type { Invoice, Page, Tree } from "draft2020-contracts";

export const order: Order = { id: 1, lines: [] }; // refused
export const reading: Reading = { value: 1 }; // refused
export const closed: Reading = { sensor: "t", value: 1, x: 1 }; // refused
export const forest: Forest = { trees: "none" }; // refused
export const node: StrictNode = { name: 3 }; // refused
export const page: Page = { loose: { data: 1 } }; // refused
export const tree: Tree = { children: [] }; // refused
export const invoice: Invoice = { number: "INV-1", total: { amount: 1, currency: "EUR" } }; // refused
export const currency: Invoice = { number: "INV-1", total: { amount: "1", currency: "GBP" } }; // refused
