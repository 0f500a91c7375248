#!/bin/bash
# Greets.
greet() {
  echo hi
}

function bye {
  echo bye
}
