# Training program for the profile-guided build (bench/pgo): graphs as dicts of lists, BFS with
# deque, Dijkstra with heapq, DFS by recursion, memoised recursion with functools.
import heapq
from collections import deque
from functools import lru_cache


def build(n):
    graph = {i: [] for i in range(n)}
    for i in range(n):
        for k in (1, 7, 31):
            j = (i * k + 3) % n
            if j != i:
                graph[i].append((j, (i + j) % 11 + 1))
    return graph


def bfs(graph, start):
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt, _ in graph[node]:
            if nxt not in seen:
                seen[nxt] = seen[node] + 1
                queue.append(nxt)
    return seen


def dijkstra(graph, start):
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist.get(node, 1 << 60):
            continue
        for nxt, w in graph[node]:
            nd = d + w
            if nd < dist.get(nxt, 1 << 60):
                dist[nxt] = nd
                heapq.heappush(heap, (nd, nxt))
    return dist


def dfs(graph, node, seen, depth=0):
    if node in seen or depth > 400:
        return 0
    seen.add(node)
    return 1 + sum(dfs(graph, nxt, seen, depth + 1) for nxt, _ in graph[node])


@lru_cache(maxsize=None)
def paths(r, c):
    if r == 0 or c == 0:
        return 1
    return paths(r - 1, c) + paths(r, c - 1)


def main():
    graph = build(6000)
    levels = bfs(graph, 0)
    dist = dijkstra(graph, 0)
    reached = dfs(graph, 0, set())
    return max(levels.values()), sum(dist.values()) % 100003, reached, paths(60, 60) % 1000007

return main()
