// Main-thread preparations from Objective-C: legacy drawing that is not thread-safe, made in the queue's passes,
// cached, prefetched in idle time, and the rows where a fling will stop prefetched first.
@import UIKit;
@import IdleWorkObjC;

@interface MainThreadTilesTableViewController : UITableViewController <UITableViewDataSourcePrefetching>
@property (nonatomic, strong) IWIdleQueue *queue;
@property (nonatomic, strong) IWPreparer *preparer;
@property (nonatomic, strong) IWPreparation *tile;
@property (nonatomic, copy) NSArray<NSString *> *names;
@end

@implementation MainThreadTilesTableViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.queue = [IWIdleQueue scrollingFeedQueue];
    self.preparer = [[IWPreparer alloc] initWithQueue:self.queue];
    // Made once: the rows' tasks and the prefetches share its results.
    self.tile = [IWPreparation
        mainThreadPreparationWithResultBytes:^NSInteger(UIImage *image) {
            CGImageRef bitmap = image.CGImage;
            return bitmap ? (NSInteger)(CGImageGetBytesPerRow(bitmap) * CGImageGetHeight(bitmap)) : 0;
        }
        prepare:^id _Nullable(NSString *name) {
            // On the main thread, between frames: UIKit drawing is fine here.
            UIGraphicsImageRenderer *renderer =
                [[UIGraphicsImageRenderer alloc] initWithSize:CGSizeMake(88, 88)];
            return [renderer imageWithActions:^(UIGraphicsImageRendererContext *context) {
                [name drawAtPoint:CGPointZero withAttributes:@{NSFontAttributeName : [UIFont systemFontOfSize:12]}];
            }];
        }];
    NSMutableArray<NSString *> *names = [NSMutableArray array];
    for (NSInteger i = 0; i < 1000; i++) {
        [names addObject:[NSString stringWithFormat:@"tile %ld", (long)i]];
    }
    self.names = names;
    [self.tableView registerClass:[UITableViewCell class] forCellReuseIdentifier:@"Tile"];
    self.tableView.prefetchDataSource = self;  // without it, UIKit never asks for prefetches
}

- (void)dealloc {
    [_queue invalidate];
}

- (NSArray<NSString *> *)namesAtIndexPaths:(NSArray<NSIndexPath *> *)indexPaths {
    NSMutableArray<NSString *> *names = [NSMutableArray arrayWithCapacity:indexPaths.count];
    for (NSIndexPath *indexPath in indexPaths) {
        [names addObject:self.names[(NSUInteger)indexPath.row]];
    }
    return names;
}

- (NSInteger)tableView:(UITableView *)tableView numberOfRowsInSection:(NSInteger)section {
    return (NSInteger)self.names.count;
}

- (UITableViewCell *)tableView:(UITableView *)tableView cellForRowAtIndexPath:(NSIndexPath *)indexPath {
    UITableViewCell *cell = [tableView dequeueReusableCellWithIdentifier:@"Tile" forIndexPath:indexPath];
    [self.queue bindCell:cell toIndexPath:indexPath];
    cell.imageView.image = nil;
    // A prefetched tile applies at once, inside this call.
    [self.preparer addTaskForCell:cell
                   atIndexPath:indexPath
                   preparation:self.tile
                         input:self.names[(NSUInteger)indexPath.row]
                         apply:^(UITableViewCell *tileCell, UIImage *image) {
                             tileCell.imageView.image = image;
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

- (void)tableView:(UITableView *)tableView prefetchRowsAtIndexPaths:(NSArray<NSIndexPath *> *)indexPaths {
    [self.preparer prefetch:self.tile fromInputs:[self namesAtIndexPaths:indexPaths]];
}

- (void)tableView:(UITableView *)tableView cancelPrefetchingForRowsAtIndexPaths:(NSArray<NSIndexPath *> *)indexPaths {
    [self.preparer cancelPrefetching:self.tile fromInputs:[self namesAtIndexPaths:indexPaths]];
}

// Where a fling will stop is known as the finger lifts: those rows go before the prefetch window's.
- (void)scrollViewWillEndDragging:(UIScrollView *)scrollView
                     withVelocity:(CGPoint)velocity
              targetContentOffset:(inout CGPoint *)targetContentOffset {
    CGRect landing = {*targetContentOffset, scrollView.bounds.size};
    NSArray<NSIndexPath *> *rows = [self.tableView indexPathsForRowsInRect:landing];
    [self.preparer prefetchFirst:self.tile fromInputs:[self namesAtIndexPaths:rows]];
}

@end
