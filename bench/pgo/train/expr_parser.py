# Training program for the profile-guided build (bench/pgo): a tokenizer and a recursive-descent
# evaluator for arithmetic with variables. Strings, small classes, recursion, exceptions, dicts.
class Token:
    __slots__ = ("kind", "text")

    def __init__(self, kind, text):
        self.kind = kind
        self.text = text


class ParseError(Exception):
    pass


def tokenize(src):
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < n and (src[j].isdigit() or src[j] == "."):
                j += 1
            out.append(Token("num", src[i:j]))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            out.append(Token("name", src[i:j]))
            i = j
        elif c in "+-*/()%^":
            out.append(Token("op", c))
            i += 1
        else:
            raise ParseError(f"bad character {c!r} at {i}")
    return out


class Parser:
    def __init__(self, tokens, env):
        self.tokens = tokens
        self.pos = 0
        self.env = env

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        tok = self.peek()
        if tok is None:
            raise ParseError("unexpected end")
        self.pos += 1
        return tok

    def expr(self):
        value = self.term()
        while (tok := self.peek()) is not None and tok.text in "+-":
            self.take()
            rhs = self.term()
            value = value + rhs if tok.text == "+" else value - rhs
        return value

    def term(self):
        value = self.power()
        while (tok := self.peek()) is not None and tok.text in "*/%":
            self.take()
            rhs = self.power()
            if tok.text == "*":
                value *= rhs
            elif tok.text == "/":
                value = value / rhs if rhs else float("inf")
            else:
                value = value % rhs if rhs else 0
        return value

    def power(self):
        base = self.atom()
        tok = self.peek()
        if tok is not None and tok.text == "^":
            self.take()
            return base ** min(self.power(), 8)
        return base

    def atom(self):
        tok = self.take()
        if tok.kind == "num":
            return float(tok.text) if "." in tok.text else int(tok.text)
        if tok.kind == "name":
            try:
                return self.env[tok.text]
            except KeyError:
                raise ParseError(f"unknown name {tok.text}") from None
        if tok.text == "(":
            value = self.expr()
            if self.take().text != ")":
                raise ParseError("expected )")
            return value
        if tok.text == "-":
            return -self.atom()
        raise ParseError(f"unexpected {tok.text}")


def main():
    sources = [
        "1 + 2 * 3 - (4 - x) * y",
        "(a + b) * (a - b) / (c + 1)",
        "x ^ 3 - 2 * x ^ 2 + 7 % (y + 1)",
        "-(x + 2.5) * -(y - 0.5) + zeta",
        "a * b * c + a / (b - b)",
        "2 ^ (1 + 1) ^ 2 + bad",
        "3 $ 4",
    ]
    total, errors = 0.0, 0
    for k in range(1500):
        env = {"x": k % 17, "y": k % 5, "a": k, "b": k % 3 + 1, "c": 2, "zeta": 0.25}
        for src in sources:
            try:
                value = Parser(tokenize(src), env).expr()
                total += value if abs(value) < 1e300 else 1
            except ParseError:
                errors += 1
    return round(total, 3), errors

return main()
