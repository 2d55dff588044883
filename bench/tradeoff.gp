# gnuplot tradeoff.gp: bench/tradeoff.png from bench/tradeoff.dat.
set terminal pngcairo size 900,540
set output 'tradeoff.png'
set title 'Checks in flight: kworkers against timer wake-ups and interrupts (256 drives, 2000 ms)'
set xlabel 'kworker threads'
set ylabel 'per second, minus no drives'
set key right top
set offsets 5, 15, 5, 5
plot 'tradeoff.dat' using ($2 == 256 ? $5 : 1/0):3:1 with labels offset 0,1 notitle, \
     '' using ($2 == 256 ? $5 : 1/0):3 with points pt 7 title 'timer wake-ups/s', \
     '' using ($2 == 256 ? $5 : 1/0):4 with points pt 5 title 'interrupts/s', \
     '' using ($2 == 256 ? $5 : 1/0):4:1 with labels offset 0,1 notitle
