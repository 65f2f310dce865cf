# Issue 6's live check: 51.2 kHz x 4 channels (sonde stream --profile Benchmarks/peers/four-channel.profile --duration 5s --stats).
name = four
rate = 51200
[channel ch0]
tone = 49.5 1 0.3 0.1
noise = 0.05
[channel ch1]
tone = 99 1 0.3 0.1
noise = 0.05
[channel ch2]
tone = 148.5 1 0.3
noise = 0.05
[channel ch3]
tone = 1234.5 0.2
noise = 0.05
