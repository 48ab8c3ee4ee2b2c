# Training program for the profile-guided build (bench/pgo): many small recursive calls — tree
# building and walking, Takeuchi's function, the towers of Hanoi, a permutation generator.
class Node:
    __slots__ = ("left", "right", "value")

    def __init__(self, left, right, value):
        self.left = left
        self.right = right
        self.value = value


def make_tree(depth, value=1):
    if depth == 0:
        return None
    return Node(make_tree(depth - 1, 2 * value), make_tree(depth - 1, 2 * value + 1), value)


def total(node):
    return 0 if node is None else node.value + total(node.left) + total(node.right)


def height(node):
    return 0 if node is None else 1 + max(height(node.left), height(node.right))


def tak(x, y, z):
    if y >= x:
        return z
    return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))


def hanoi(n, source, target, spare, moves):
    if n:
        hanoi(n - 1, source, spare, target, moves)
        moves.append((source, target))
        hanoi(n - 1, spare, target, source, moves)


def permutations(items):
    if len(items) <= 1:
        return [items]
    out = []
    for i, item in enumerate(items):
        for rest in permutations(items[:i] + items[i + 1 :]):
            out.append([item] + rest)
    return out


def main():
    tree = make_tree(13)
    moves = []
    hanoi(13, "a", "c", "b", moves)
    return total(tree), height(tree), tak(16, 10, 4), len(moves), len(permutations(list(range(7))))

return main()
