// Prepared tasks: thumbnails decoded on the queue's worker threads, applied to their cells on the main thread in a
// pass, and prefetched for the rows UIKit says are about to appear.
@import UIKit;
@import IdleWorkObjC;

@interface PrefetchingTableViewController : UITableViewController <UITableViewDataSourcePrefetching>
@property (nonatomic, strong) IWIdleQueue *queue;
@property (nonatomic, strong) IWPreparer *preparer;
@property (nonatomic, strong) IWPreparation *thumbnail;
@property (nonatomic, copy) NSArray<NSURL *> *photoURLs;
@end

@implementation PrefetchingTableViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    // Prefetching needs a result cache: the scrolling-feed setting keeps 32 MB.
    self.queue = [IWIdleQueue scrollingFeedQueue];
    self.preparer = [[IWPreparer alloc] initWithQueue:self.queue];
    // Made once and reused, so that a row's task finds what a prefetch prepared for the same URL.
    self.thumbnail = [[IWPreparation alloc]
        initWithResultBytes:^NSInteger(UIImage *image) {
            CGImageRef bitmap = image.CGImage;
            return bitmap ? (NSInteger)(CGImageGetBytesPerRow(bitmap) * CGImageGetHeight(bitmap)) : 0;
        }
        prepare:^id _Nullable(NSURL *url, BOOL (^isCancelled)(void)) {
            // On a worker thread: only thread-safe work here.
            NSData *data = [NSData dataWithContentsOfURL:url];
            if (data == nil || isCancelled()) {
                return nil;  // counted as failed; nothing is applied
            }
            UIImage *image = [UIImage imageWithData:data];
            UIGraphicsImageRenderer *renderer =
                [[UIGraphicsImageRenderer alloc] initWithSize:CGSizeMake(88, 88)];
            return [renderer imageWithActions:^(UIGraphicsImageRendererContext *context) {
                [image drawInRect:CGRectMake(0, 0, 88, 88)];
            }];
        }];
    NSMutableArray<NSURL *> *urls = [NSMutableArray array];
    for (NSInteger i = 0; i < 1000; i++) {
        NSString *address = [NSString stringWithFormat:@"https://example.com/photos/%ld.jpg", (long)i];
        [urls addObject:[NSURL URLWithString:address]];
    }
    self.photoURLs = urls;
    [self.tableView registerClass:[UITableViewCell class] forCellReuseIdentifier:@"Photo"];
    self.tableView.prefetchDataSource = self;

    // The form without a cell: a header image.
    __weak typeof(self) weakSelf = self;
    [self.preparer addTaskWithKey:@"header"
                   preparation:self.thumbnail
                         input:urls.firstObject
                         apply:^(UIImage *image) {
                             weakSelf.tableView.tableHeaderView = [[UIImageView alloc] initWithImage:image];
                         }];
}

- (void)dealloc {
    [_queue invalidate];
}

- (NSArray<NSURL *> *)URLsAtIndexPaths:(NSArray<NSIndexPath *> *)indexPaths {
    NSMutableArray<NSURL *> *urls = [NSMutableArray arrayWithCapacity:indexPaths.count];
    for (NSIndexPath *indexPath in indexPaths) {
        [urls addObject:self.photoURLs[(NSUInteger)indexPath.row]];
    }
    return urls;
}

- (NSInteger)tableView:(UITableView *)tableView numberOfRowsInSection:(NSInteger)section {
    return (NSInteger)self.photoURLs.count;
}

- (UITableViewCell *)tableView:(UITableView *)tableView cellForRowAtIndexPath:(NSIndexPath *)indexPath {
    UITableViewCell *cell = [tableView dequeueReusableCellWithIdentifier:@"Photo" forIndexPath:indexPath];
    [self.queue bindCell:cell toIndexPath:indexPath];
    cell.imageView.image = nil;
    cell.textLabel.text = self.photoURLs[(NSUInteger)indexPath.row].lastPathComponent;
    // A kept result (prefetched) applies at once, inside this call: the row shows it in its first frame.
    [self.preparer addTaskForCell:cell
                   atIndexPath:indexPath
                   preparation:self.thumbnail
                         input:self.photoURLs[(NSUInteger)indexPath.row]
                         apply:^(UITableViewCell *cell, UIImage *image) {
                             cell.imageView.image = image;
                             [cell setNeedsLayout];
                         }];
    return cell;
}

- (void)tableView:(UITableView *)tableView
      willDisplayCell:(UITableViewCell *)cell
    forRowAtIndexPath:(NSIndexPath *)indexPath {
    [self.queue cellWillDisplay:cell atIndexPath:indexPath];
}

- (void)tableView:(UITableView *)tableView
    didEndDisplayingCell:(UITableViewCell *)cell
       forRowAtIndexPath:(NSIndexPath *)indexPath {
    [self.queue cellDidEndDisplaying:cell atIndexPath:indexPath];
}

#pragma mark UITableViewDataSourcePrefetching

- (void)tableView:(UITableView *)tableView prefetchRowsAtIndexPaths:(NSArray<NSIndexPath *> *)indexPaths {
    [self.preparer prefetch:self.thumbnail fromInputs:[self URLsAtIndexPaths:indexPaths]];
}

- (void)tableView:(UITableView *)tableView cancelPrefetchingForRowsAtIndexPaths:(NSArray<NSIndexPath *> *)indexPaths {
    [self.preparer cancelPrefetching:self.thumbnail fromInputs:[self URLsAtIndexPaths:indexPaths]];
}

- (void)didReceiveMemoryWarning {
    [super didReceiveMemoryWarning];
    IWPreparerStatistics *statistics = self.preparer.statistics;
    NSLog(@"cache hits %ld, failed %ld, wasted preparations %ld", (long)statistics.cacheHits,
          (long)statistics.failed, (long)statistics.wastedPreparations);
}

@end
