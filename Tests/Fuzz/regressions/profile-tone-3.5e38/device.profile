rate = 1000
[channel a]
tone = 10 3.5e38
