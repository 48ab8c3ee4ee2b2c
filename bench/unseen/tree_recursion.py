# Recursion: build a binary tree of tuples, then walk it recursively (sum, depth, leaf count, mirror).
def build(depth, seed):
    if depth == 0:
        return (seed % 97, None, None)
    return (seed % 89, build(depth - 1, seed * 3 + 1), build(depth - 1, seed * 7 + 2))


def total(node):
    if node is None:
        return 0
    value, left, right = node
    return value + total(left) + total(right)


def height(node):
    if node is None:
        return 0
    return 1 + max(height(node[1]), height(node[2]))


def leaves(node):
    if node[1] is None:
        return 1
    return leaves(node[1]) + leaves(node[2])


def mirror(node):
    if node is None:
        return None
    return (node[0], mirror(node[2]), mirror(node[1]))


def main():
    tree = build(13, 1)
    flipped = mirror(tree)
    return (total(tree), height(tree), leaves(tree), total(flipped) == total(tree))
