#include <stdio.h>

/* A node. */
struct node {
    int v;
};

typedef struct node node_t;

static int add(int a, int b);

int add(int a, int b)
{
    return a + b;
}
