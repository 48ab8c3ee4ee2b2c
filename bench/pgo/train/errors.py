# Training program for the profile-guided build (bench/pgo): exceptions raised and caught in loops,
# custom exception classes, finally, context managers, validation code.
class ValidationError(ValueError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class Tracker:
    def __init__(self):
        self.entered = 0
        self.exited = 0

    def __enter__(self):
        self.entered += 1
        return self

    def __exit__(self, kind, value, tb):
        self.exited += 1
        return kind is KeyError


def validate(record):
    if not isinstance(record.get("name"), str) or not record["name"]:
        raise ValidationError("name", "required")
    age = record.get("age")
    if not isinstance(age, int):
        raise ValidationError("age", "must be an int")
    if age < 0 or age > 150:
        raise ValidationError("age", "out of range")
    return record["name"].title(), age


def main():
    tracker = Tracker()
    ok, bad, fields, cleaned = 0, 0, {}, 0
    for i in range(12000):
        record = {"name": "" if i % 11 == 0 else f"user {i}", "age": i % 170 if i % 7 else str(i)}
        try:
            validate(record)
            ok += 1
        except ValidationError as e:
            bad += 1
            fields[e.field] = fields.get(e.field, 0) + 1
        finally:
            cleaned += 1
        with tracker:
            {}["missing"] if i % 3 == 0 else None
        try:
            int("x" if i % 5 == 0 else "42")
        except ValueError:
            bad += 1
        try:
            [][i]
        except IndexError:
            pass
    return ok, bad, fields, cleaned, tracker.entered, tracker.exited

return main()
