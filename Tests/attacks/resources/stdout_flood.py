# attack: flood stdout without end
# limits: output_kb=64
# expect: status in [output_limit]; stdout_truncated == true; elapsed_s < 15
import sys

line = "A" * 1023 + "\n"
while True:
    sys.stdout.write(line)
