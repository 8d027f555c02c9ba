import React, { useState as useLocal, useEffect } from 'react';
import * as path from "node:path";
import './polyfill.js';
const fs = require('fs');
const { join, resolve: res } = require('path');

export const MAX_ITEMS = 100;
let counter = 0;
var legacy = true;

/**
 * A cart of items.
 */
export class Cart extends Base {
  #secret = 1;
  items = [];
  static count = 0;

  constructor(owner) {
    super();
    this.owner = owner;
  }

  // Adds an item.
  add(item) {
    this.items.push(item);
  }

  get total() { return this.items.length; }

  static create() { return new Cart(); }

  #hidden() {}
}

/** Makes a cart. */
export function newCart(owner) {
  function inner() {}
  return new Cart(owner);
}

export default function () {}

function* ids() { yield 1; }

const double = (x) => x * 2;
const named = function helper() {};

async function load() {}

export { double, load as loadCart };
export * from './more.js';
export { helper2 } from './helpers.js';

module.exports.legacyAdd = function (a, b) { return a + b; };
exports.version = '1.0';
